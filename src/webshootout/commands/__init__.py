"""One module per command, each with run(settings, ...) -> exit code."""
