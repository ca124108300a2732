public enum HTTPTestingScratch {}
