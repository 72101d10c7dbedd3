"""The application: the ``nokta`` command (``cli``), reading and writing files safely
(``restore_io``, ``safe_output``), worker processes (``workers``), ``nokta check`` over
files (``check_files``, ``check_report``) and corpus-scale restoring on Ray (``cluster``).
It builds on the library (the rest of ``nokta_model``), which never imports it."""
