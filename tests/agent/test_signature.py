"""Typed results: short string signatures, Python types and pydantic models."""

import pytest
from pydantic import BaseModel

from ptc.agent.signature import Signature, SignatureError, parse_signature
from ptc.interpreter.reader import read_value


def check(sig: str, value_text: str) -> str | None:
    return Signature(sig).validate(read_value(value_text))[1]


def test_record_signature() -> None:
    sig = "{total :float, items [:string]}"
    assert check(sig, '{:total 3.5 :items ["a" "b"]}') is None
    assert check(sig, '{"total" 3 "items" []}') is None  # ints are floats; string keys match
    err = check(sig, '{:total "x" :items []}')
    assert err is not None and ":total" in err and "float" in err and "string" in err
    assert "missing" in (check(sig, "{:total 1.0}") or "")


def test_optional_and_nested() -> None:
    assert check("{a :int?}", "{}") is None
    assert check("[{n :int}]", "[{:n 1} {:n 2}]") is None
    assert "[1]" in (check("[{n :int}]", '[{:n 1} {:n "2"}]') or "")


def test_signature_text_round_trips() -> None:
    assert parse_signature("{total :float, items [:string]}").text() == "{total :float, items [:string]}"
    with pytest.raises(SignatureError):
        parse_signature(":money")


def test_python_type_and_pydantic_model() -> None:
    value, err = Signature(list[int]).validate(read_value("[1 2]"))
    assert err is None and value == [1, 2]

    class Result(BaseModel):
        top: str
        revenue: float

    value, err = Signature(Result).validate(read_value('{:top "Books" :revenue 12.5}'))
    assert err is None and isinstance(value, Result) and value.top == "Books"
    _, err = Signature(Result).validate(read_value('{:top "Books"}'))
    assert err is not None and "revenue" in err
