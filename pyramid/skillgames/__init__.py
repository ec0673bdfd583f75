"""The skill games: turns of physical play judged from read-outs."""
