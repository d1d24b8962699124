"""Validates one JSON document (standard input) against a schema of docs/ (JSON Schema draft 2020-12), the other
schemas beside it resolvable by their $id, formats checked (date-time as RFC 3339).

  validate_json_schema.py SCHEMA      exit 0 when valid; 1 with one violation a line; 2 when the schema is no schema

A violation is told by its place and the keyword it breaks, never by the value there: the output of `token --json`
holds a token, which must not reach a test's output.
"""
import datetime
import json
import pathlib
import sys

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError
from referencing import Registry, Resource

# Keywords whose messages name keys only (a missing or an unexpected property), never a value.
KEY_ONLY = {"required", "additionalProperties"}


def main():
    schema_path = pathlib.Path(sys.argv[1])
    schemas = [json.loads(path.read_text()) for path in schema_path.parent.glob("*.schema.json")]
    registry = Registry().with_resources((schema["$id"], Resource.from_contents(schema)) for schema in schemas)
    schema = json.loads(schema_path.read_text())
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        print(f"{schema_path.name} is no draft 2020-12 schema: {error.message}")
        return 2
    formats = FormatChecker()

    @formats.checks("date-time", raises=ValueError)
    def rfc3339(text):
        return not isinstance(text, str) or (text.endswith("Z") and datetime.datetime.fromisoformat(text) is not None)

    validator = Draft202012Validator(schema, registry=registry, format_checker=formats)
    errors = sorted(validator.iter_errors(json.load(sys.stdin)), key=lambda error: list(error.absolute_path))
    for error in errors:
        said = f" ({error.message})" if error.validator in KEY_ONLY else ""
        print(f"{error.json_path}: breaks '{error.validator}'{said}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
