"""Links a learner cannot trust: not https, a raw IP address, a placeholder-like host.

guides.yaml's URLs must already be https on a real-looking host (`schema`, an error); these are
warnings about links written inside strings (an explanation's "see https://...") and about
guide hosts that pass the schema but look made up (todo.com, a raw IP). Pure functions.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from bot.content.problems import N_, Msg
from bot.content.schema import placeholder_host

_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s<>»)\]]+", re.IGNORECASE)
_BARE_IP = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?!\w|\.\d)")
# First labels of hosts that stand in for a real site.
_PLACEHOLDER_NAMES = frozenset(
    [
        "todo",
        "tbd",
        "fixme",
        "xxx",
        "foo",
        "bar",
        "baz",
        "test",
        "placeholder",
        "changeme",
        "lorem",
        "yourdomain",
        "your-domain",
        "mydomain",
        "my-domain",
        "domain",
        "website",
        "yoursite",
        "your-site",
        "mysite",
        "my-site",
        "site",
        "url",
        "link",
    ]
)


def host_problem(url: str) -> str | None:
    """What is wrong with a link's host, if anything."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    if not host:
        return Msg(N_("'{url}' has no host: link a real page"), url=url)
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return Msg(N_("'{url}' points at a raw IP address: link the site by its name"), url=url)
    if placeholder_host(host) or host.split(".")[0] in _PLACEHOLDER_NAMES:
        return Msg(N_("'{url}' points at a placeholder-like host ({host}): link a real page"),
                   url=url, host=host)  # fmt: skip
    return None


def link_problems(text: str) -> list[str]:
    """Every link in a string that is not https or whose host looks wrong; bare IP addresses."""
    messages: list[str] = []
    if "://" not in text and text.count(".") < 3:
        return messages  # no link and no room for an IP address: the usual case
    for url in _URL.findall(text):
        url = url.rstrip(".,;:!?’'\"")
        if urlsplit(url).scheme.lower() != "https":
            messages.append(Msg(N_("'{url}' is not an https link: learners' apps may refuse it"),
                                url=url))  # fmt: skip
        elif (problem := host_problem(url)) is not None:
            messages.append(problem)
    for ip in _BARE_IP.findall(_URL.sub(" ", text)):
        messages.append(Msg(N_("'{ip}' is a raw IP address: link the site by its name, over "
                               "https"), ip=ip))  # fmt: skip
    return messages
