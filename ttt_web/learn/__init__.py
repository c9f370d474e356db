"""For students: from minimax's values to the code the assignment asks for."""
