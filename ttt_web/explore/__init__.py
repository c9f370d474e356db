"""The explorer of the AI's search, and the page of minimax's classic bugs."""
