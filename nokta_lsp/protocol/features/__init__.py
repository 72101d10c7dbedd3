"""One module per LSP feature: its handlers (module-level functions, registered in
``handlers``) and the little logic that is only theirs."""
