// The IconCatalog module: see README for its place in the data flow.
