"""Analysis without protocol types (neither lsprotocol nor pygls): documents, edits,
incremental findings, the worker and its model, autocorrect, the workspace check."""
