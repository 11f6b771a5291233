class Error(Exception):
    """Bad input: the one line the samplab command prints on stderr for the same input."""
