"""Malformed requests get 400 with our page, never a 500 or a traceback in the log: a header
that is not what it names (an Origin that is no URL) and a body that breaks its framing (a
chunk size that is not a number), over a real gunicorn, which parses the framing itself."""

import socket

from tests import servers

FORM = "Content-Type: application/x-www-form-urlencoded\r\n"
REQUESTS = {
    "origin not a url": f"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://[::1\r\n{FORM}"
    "Content-Length: 11\r\n\r\nmode=friend",
    "invalid chunk size": f"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\n{FORM}Transfer-Encoding: chunked\r\n\r\n"
    "zz\r\nmode=friend\r\n0\r\n\r\n",
    "chunks cut short": f"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\n{FORM}Transfer-Encoding: chunked\r\n\r\n"
    "b\r\nmode=friend",
}


def exchange(base: str, raw: str) -> str:
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(raw.encode())
        if raw.endswith("friend"):
            sock.shutdown(socket.SHUT_WR)  # the rest of the chunk never comes
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            if b"</html>" in answer:
                break
    return answer.decode(errors="replace")


def test_malformed_requests_answer_400_with_our_page(logged_server):
    base, mark = logged_server.base, logged_server.mark()
    assert servers.HttpClient(base, timeout=60).get("/").status_code == 200  # the worker has loaded the app
    for name, raw in REQUESTS.items():
        answer = exchange(base, raw)
        assert answer.startswith("HTTP/1.1 400"), (name, answer[:300])
        assert "not one the game understands" in answer, name
    assert "Traceback" not in logged_server.log_since(mark)
