"""Rule options: declared once per game, validated once per run, never parsed in a kernel."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from simcards.errors import SimcardsError, choices

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class RuleOption:
    """One named rule option of a game.

    ``default`` may be a callable of the other resolved options (for example a
    card count that depends on the edition); ``default_text`` then explains it.
    """

    name: str
    kind: type  # int, bool or str
    default: Any
    help: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    default_text: str | None = None

    def describe_default(self) -> str:
        if self.default_text is not None:
            return self.default_text
        if self.kind is bool:
            return "true" if self.default else "false"
        return str(self.default)

    def accepted(self) -> str:
        if self.choices:
            return "one of " + choices(self.choices)
        if self.kind is bool:
            return "true or false"
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        return f"an integer {lo}..{hi}" if (lo or hi) else "an integer"

    def convert(self, game: str, value: Any) -> Any:
        """Turn a user value (Python value or CLI string) into the option's type."""
        bad = SimcardsError(
            f"bad value {value!r} for rule option {self.name!r} of {game}: expected {self.accepted()}")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise bad
        if self.kind is int:
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    raise bad from None
            if not isinstance(value, int):
                raise bad
            if (self.minimum is not None and value < self.minimum) or (
                    self.maximum is not None and value > self.maximum):
                raise bad
            return value
        if not isinstance(value, str):     # str(["a"]) is no choice of anyone's
            raise bad
        value = value.strip()
        if self.choices and value not in self.choices:
            raise bad
        return value


def resolve_options(game: str, options: tuple[RuleOption, ...],
                    given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option of the game with its value: the user's where given, else the default.
    ``given`` is a mapping (``{"lives": 3}``) or None; key=value text is the CLI's
    (``parse_assignments``), refused here rather than half-parsed."""
    from simcards.contract.validate import check_rules
    given = check_rules(given)
    known = {o.name: o for o in options}
    for key in given:
        if key not in known:
            raise SimcardsError(
                f"unknown rule option {key!r} for {game}: accepted are {choices(known)}")
    resolved: dict[str, Any] = {}
    deferred: list[RuleOption] = []
    for opt in options:
        if opt.name in given:
            resolved[opt.name] = opt.convert(game, given[opt.name])
        elif callable(opt.default):
            deferred.append(opt)
        else:
            resolved[opt.name] = opt.default
    for opt in deferred:
        resolved[opt.name] = opt.default(resolved)
    return resolved


def check_deal(n_players: int, hand_size: int, deck: int) -> None:
    """The deck must hold every starting hand."""
    if n_players * hand_size > deck:
        raise SimcardsError(
            f"hand_size={hand_size} for {n_players} players needs {n_players * hand_size} cards "
            f"but the deck has {deck}")


def parse_assignments(pairs: list[str] | None) -> dict[str, str]:
    """``["lives=3", "blitz=true"]`` -> ``{"lives": "3", "blitz": "true"}`` (CLI ``--rule``)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SimcardsError(f"bad rule {pair!r}: expected key=value, for example lives=3")
        if key.strip() in out:
            # the last one winning silently hides a typo in a long command line
            raise SimcardsError(f"rule option {key.strip()!r} given twice ({key.strip()}={out[key.strip()]}, "
                                f"{pair.strip()}): expected each option once")
        out[key.strip()] = value.strip()
    return out


OptionDefault = Callable[[dict], Any]
