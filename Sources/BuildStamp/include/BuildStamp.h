#ifndef TABSTAGE_BUILD_STAMP_H
#define TABSTAGE_BUILD_STAMP_H

/// The version and commit a release build was made from, or NULL in an ordinary build.
///
/// These are weak definitions that answer NULL. `make dist` (scripts/dist) links one more
/// object with strong definitions that answer the version and commit: only the final link
/// changes, so no module is compiled again for a new commit, and an ordinary `swift build`
/// never depends on git.
const char *tabstage_stamped_version(void);
const char *tabstage_stamped_commit(void);

#endif
