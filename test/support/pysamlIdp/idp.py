"""A SAML 2.0 identity provider for the Keycloak tests: pysaml2's Server does the SAML (the AuthnRequest's parsing
and signature check, the response, its signing with xmlsec1, the metadata); this file is only the HTTP glue, a login
form and its users.

Usage: python idp.py SETTINGS.json. The settings name the key pair, the users ({email: {password, givenName, sn}})
and the file the SP's metadata is written to once the test knows it (read again at each request, as an IdP admin
would register the SP after the IdP is up). It listens on a free loopback port and prints its base URL on stdout.
"""

import html
import json
import secrets
import sys
from socketserver import ThreadingMixIn
from urllib.parse import parse_qs
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.metadata import create_metadata_string
from saml2.saml import AUTHN_PASSWORD, NAME_FORMAT_URI, NAMEID_FORMAT_EMAILADDRESS, NameID
from saml2.server import Server
from saml2.sigver import get_xmlsec_binary
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256


class ThreadingWsgiServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        sys.stderr.write("pysaml2 idp: " + (format % args) + "\n")


def idp_config(base, settings, with_sp):
    config = {
        "entityid": f"{base}/metadata",
        "service": {
            "idp": {
                "name": "pysaml2 test IdP",
                "endpoints": {
                    "single_sign_on_service": [(f"{base}/sso/redirect", BINDING_HTTP_REDIRECT), (f"{base}/sso/post", BINDING_HTTP_POST)],
                },
                # Keycloak signs its AuthnRequests: pysaml2 checks them against the SP metadata's certificate.
                "want_authn_requests_signed": True,
                "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
                "policy": {"default": {"lifetime": {"minutes": 5}, "attribute_restrictions": None, "name_form": NAME_FORMAT_URI}},
            },
        },
        "key_file": settings["key_file"],
        "cert_file": settings["cert_file"],
        "signing_algorithm": SIG_RSA_SHA256,
        "digest_algorithm": DIGEST_SHA256,
        "accepted_time_diff": 30,
    }
    if with_sp:
        config["metadata"] = {"local": [settings["sp_metadata_file"]]}
    return IdPConfig().load(config)


def page(status, body, start_response, content_type="text/html; charset=utf-8"):
    start_response(status, [("Content-Type", content_type), ("Cache-Control", "no-store")])
    return [body.encode("utf-8")]


def login_form(key, login_hint, error=""):
    notice = f'<p role="alert" id="pysaml-error">{html.escape(error)}</p>' if error else ""
    return (
        "<!doctype html><html lang=\"en\"><head><title>pysaml2 IdP sign-in</title></head><body>"
        f"<h1>pysaml2 IdP</h1>{notice}"
        '<form method="post" action="/login">'
        f'<input type="hidden" name="key" value="{html.escape(key)}">'
        f'<label for="pysaml-login">E-mail</label> <input id="pysaml-login" name="login" value="{html.escape(login_hint)}">'
        '<label for="pysaml-password">Password</label> <input id="pysaml-password" name="password" type="password">'
        '<button id="pysaml-submit" type="submit">Sign in</button>'
        "</form></body></html>"
    )


def make_app(base, settings):
    pending = {}

    def sso(binding, fields, start_response):
        server = Server(config=idp_config(base, settings, with_sp=True))
        request = server.parse_authn_request(
            fields["SAMLRequest"],
            binding,
            relay_state=fields.get("RelayState"),
            sigalg=fields.get("SigAlg"),
            signature=fields.get("Signature"),
        )
        message = request.message
        key = secrets.token_urlsafe(16)
        pending[key] = {"request": message, "relay_state": fields.get("RelayState", "")}
        hint = message.subject.name_id.text if message.subject is not None and message.subject.name_id is not None else ""
        return page("200 OK", login_form(key, hint or ""), start_response)

    def login(fields, start_response):
        state = pending.get(fields.get("key", ""))
        if state is None:
            return page("400 Bad Request", "no sign-in under way", start_response, "text/plain")
        email = fields.get("login", "").strip()
        user = settings["users"].get(email)
        if user is None or not secrets.compare_digest(user["password"], fields.get("password", "")):
            return page("200 OK", login_form(fields["key"], email, "Wrong e-mail or password."), start_response)
        del pending[fields["key"]]
        server = Server(config=idp_config(base, settings, with_sp=True))
        message = state["request"]
        sp = message.issuer.text
        _, destination = server.pick_binding("assertion_consumer_service", bindings=[BINDING_HTTP_POST], entity_id=sp)
        response = server.create_authn_response(
            {"mail": [email], "givenName": [user["givenName"]], "sn": [user["sn"]]},
            in_response_to=message.id,
            destination=destination,
            sp_entity_id=sp,
            name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=email),
            authn={"class_ref": AUTHN_PASSWORD, "authn_auth": f"{base}/metadata"},
            sign_response=True,
            sign_assertion=True,
            sign_alg=SIG_RSA_SHA256,
            digest_alg=DIGEST_SHA256,
        )
        post = server.apply_binding(BINDING_HTTP_POST, str(response), destination, state["relay_state"], response=True)
        return page("200 OK", post["data"], start_response)

    def app(environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ["REQUEST_METHOD"]
        if method == "POST":
            length = int(environ.get("CONTENT_LENGTH") or 0)
            fields = {k: v[0] for k, v in parse_qs(environ["wsgi.input"].read(length).decode("utf-8")).items()}
        else:
            fields = {k: v[0] for k, v in parse_qs(environ.get("QUERY_STRING", "")).items()}
        try:
            if path == "/metadata" and method == "GET":
                metadata = create_metadata_string(None, config=idp_config(base, settings, with_sp=False)).decode("utf-8")
                return page("200 OK", metadata, start_response, "application/samlmetadata+xml")
            if path == "/sso/redirect" and method == "GET":
                return sso(BINDING_HTTP_REDIRECT, fields, start_response)
            if path == "/sso/post" and method == "POST":
                return sso(BINDING_HTTP_POST, fields, start_response)
            if path == "/login" and method == "POST":
                return login(fields, start_response)
        except Exception as error:  # the test reads why on stderr and the page; the IdP stays up
            sys.stderr.write(f"pysaml2 idp: {path}: {error!r}\n")
            return page("400 Bad Request", f"refused: {error!r}", start_response, "text/plain")
        return page("404 Not Found", "not found", start_response, "text/plain")

    return app


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        settings = json.load(file)
    # Without xmlsec1 (Debian's package) pysaml2 could neither check a request nor sign a response: fail at start.
    get_xmlsec_binary()
    # Bound first: the free port is part of the entity id and endpoints the app is made with.
    httpd = make_server("127.0.0.1", 0, None, ThreadingWsgiServer, QuietHandler)
    base = f"http://127.0.0.1:{httpd.server_port}"
    httpd.set_app(make_app(base, settings))
    print(base, flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
