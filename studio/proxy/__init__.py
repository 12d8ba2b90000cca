"""The recording proxy between an agent and its model provider (DESIGN §9, issue #14 §3).

``studio proxy --upstream URL --kind openai-chat|anthropic-messages``: the
agent is pointed at the proxy instead of its provider. Requests and answers
pass through unchanged (streams as they arrive); every conversation is
recorded as a session with source ``proxy``; each request's history is
checked for pairing problems before it is forwarded, and the ``--on-broken``
policy forwards, repairs or refuses a broken one.
"""

from studio.proxy.app import DEFAULT_SESSION_HEADER, ProxyApp, ProxyConfig
from studio.proxy.policy import OnBroken
from studio.proxy.recorder import SOURCE_PROXY, Recorder, RegistryTarget
from studio.proxy.run import DEFAULT_HOST, ProxyThread, serve
from studio.proxy.wire import Kind

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_SESSION_HEADER",
    "SOURCE_PROXY",
    "Kind",
    "OnBroken",
    "ProxyApp",
    "ProxyConfig",
    "ProxyThread",
    "Recorder",
    "RegistryTarget",
    "serve",
]
