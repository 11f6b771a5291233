class Error(ValueError):
    """A value samplab refuses: the message names the keyword or the input and says what is wrong
    with the value (samplab's own check, worded for Python)."""
