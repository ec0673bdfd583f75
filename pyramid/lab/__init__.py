"""Scenes, runs, experiments, summaries, the benchmark and the demo: the library behind `pyramid run`,
`experiment`, `bench` and `demo`. No argparse, no print."""
