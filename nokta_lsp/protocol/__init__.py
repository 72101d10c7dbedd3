"""The protocol layer: pygls and lsprotocol, the server, its table of handlers and one
module per LSP method (``features``)."""
