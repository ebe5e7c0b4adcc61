"""The fake Discords held to Discord's contract and its load rules (``limits``: rate limits, thread caps,
interaction deadlines)."""
