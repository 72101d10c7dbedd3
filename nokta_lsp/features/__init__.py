"""One module per LSP feature: its handlers and the little logic that is only theirs."""
