"""nokta_lsp/protocol/transport.py reaches into pygls' private names (pyproject pins pygls to the
minor release it was written against). If an upgrade moves them, this test says which
and where, instead of the server failing at run time."""

import inspect

import pygls.io_
from pygls.protocol import JsonRPCProtocol

from nokta_lsp.protocol.handlers import build_server

#: Attributes transport.py reads or writes on a pygls protocol, and on the server.
PROTOCOL_INTERNALS = (
    "_result_types",
    "_request_futures",
    "_send_response",
    "_converter",
    "_include_headers",
    "_shutdown",
)
SERVER_INTERNALS = ("_stop_event",)
#: Keyword arguments transport.py passes to pygls.io_.run_async.
RUN_ASYNC_PARAMETERS = {"stop_event", "reader", "protocol", "logger", "error_handler"}


def _missing(owner: object, names: tuple[str, ...]) -> list[str]:
    return [name for name in names if not hasattr(owner, name)]


def test_the_pygls_internals_transport_uses_are_still_there():
    server = build_server()
    missing = _missing(server.protocol, PROTOCOL_INTERNALS) + _missing(server, SERVER_INTERNALS)
    assert not missing, f"pygls no longer has {missing}: update nokta_lsp/protocol/transport.py for this pygls release"
    assert callable(server.protocol._send_response), "pygls' _send_response is no longer a method"
    assert isinstance(server.protocol, JsonRPCProtocol)


def test_run_async_takes_the_arguments_transport_passes():
    parameters = set(inspect.signature(pygls.io_.run_async).parameters)
    assert parameters >= RUN_ASYNC_PARAMETERS, (
        f"pygls.io_.run_async lost {RUN_ASYNC_PARAMETERS - parameters}: update nokta_lsp/protocol/transport.py"
    )
