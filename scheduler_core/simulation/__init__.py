"""The run: the clock, the scenario's actions carried out, the loop that drives controllers."""
