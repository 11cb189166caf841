"""The abstract interpreter: runs a program's AST over abstract values, producing checks."""
