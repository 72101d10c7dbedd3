"""The server's state, owned by the event loop: the session and its open documents, the
scheduler, the model engine, settings, dictionary, workspace."""
