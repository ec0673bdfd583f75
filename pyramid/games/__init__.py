"""The board games of the rule book, one module per family; ``pyramid.registry`` lists every game."""
