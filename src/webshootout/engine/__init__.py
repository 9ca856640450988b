"""The trial engine: one run's state and steps between the harness (serving one stack) and the commands."""
