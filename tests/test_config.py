"""The configuration file: discovery, values, validation errors and the shipped JSON schema."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from nokta_model.config import SCHEMA, Config, ConfigCache, ConfigError, config_for, find_config, load_config
from nokta_model.config.validate import KEYS, checked, key_line


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_nearest_file_above_wins_and_names_are_tried_in_order(tmp_path):
    write(tmp_path / "nokta.toml", 'words = ["top"]\n')
    write(tmp_path / "a" / "pyproject.toml", '[tool.nokta]\nwords = ["pyproject"]\n')
    write(tmp_path / "a" / "b" / "c" / "x.md", "")
    assert config_for(tmp_path / "a" / "b" / "c" / "x.md").words == ("pyproject",)
    write(tmp_path / "a" / "nokta.toml", 'words = ["plain name"]\n')
    assert config_for(tmp_path / "a" / "x.md").words == ("plain name",)
    write(tmp_path / "a" / ".nokta.toml", 'words = ["dot name"]\n')
    assert find_config(tmp_path / "a" / "b") == tmp_path / "a" / ".nokta.toml"
    assert config_for(tmp_path / "x.md").words == ("top",)


def test_a_pyproject_without_the_table_does_not_count(tmp_path):
    write(tmp_path / "nokta.toml", 'words = ["outer"]\n')
    write(tmp_path / "a" / "pyproject.toml", '[project]\nname = "x"\ndependencies = ["nokta"]\n')
    write(tmp_path / "b" / "pyproject.toml", "[project\nbroken, and none of nokta's business\n")
    assert config_for(tmp_path / "a" / "x.md").words == ("outer",)
    assert config_for(tmp_path / "b" / "x.md").words == ("outer",)


def test_no_file_gives_the_empty_configuration(tmp_path):
    assert find_config(tmp_path) is None  # nothing above pytest's temporary folders either
    config = config_for(tmp_path / "x.md")
    assert config == Config()
    assert (config.words, config.confidence_threshold, config.autocorrect, config.excludes("x.md")) == (
        (),
        None,
        None,
        False,
    )


def test_every_key_is_read(tmp_path):
    path = write(
        tmp_path / ".nokta.toml",
        """
words = ["Yasar", "commit"]
ignore-regex = ['\\bSKU-\\d+\\b']
exclude = ["vendor/", "*.generated.md"]
confidence-threshold = 0.95
strict-confidence-threshold = 1
autocorrect = ["markdown"]
autocorrect-threshold = 0.999
""",
    )
    assert load_config(path) == Config(
        path=path,
        words=("Yasar", "commit"),
        ignore_regex=(r"\bSKU-\d+\b",),
        exclude=("vendor/", "*.generated.md"),
        confidence_threshold=0.95,
        strict_confidence_threshold=1.0,
        autocorrect=("markdown",),
        autocorrect_threshold=0.999,
    )


def test_exclude_is_gitignore_style_relative_to_the_configurations_folder(tmp_path):
    config = load_config(write(tmp_path / "nokta.toml", 'exclude = ["vendor/", "/top.md", "docs/**/draft-*"]\n'))
    assert config.excludes(tmp_path / "vendor" / "x.md")
    assert config.excludes(tmp_path / "a" / "vendor" / "x.md")
    assert config.excludes(tmp_path / "top.md") and not config.excludes(tmp_path / "a" / "top.md")
    assert config.excludes(tmp_path / "docs" / "a" / "draft-1.md")
    assert not config.excludes(tmp_path / "docs" / "final.md")
    assert not config.excludes(tmp_path.parent / "vendor" / "x.md")  # outside its folder


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('words = ["a"]\nignore-regexp = ["x"]\n', ":2: unknown key 'ignore-regexp'; did you mean 'ignore-regex'?"),
        ("\n\nconfidence-threshold = 1.5\n", ":3: confidence-threshold: expected a number from 0 to 1, got 1.5"),
        ('confidence-threshold = "high"\n', ':1: confidence-threshold: expected a number, got "high"'),
        ('words = "Yasar"\n', ':1: words: expected a list, got "Yasar"'),
        ('words = ["a", 3]\n', ":1: words: item 2: expected a string, got 3"),
        ('exclude = [""]\n', ":1: exclude: item 1: expected a non-empty string"),
        ("ignore-regex = ['(unclosed']\n", ":1: ignore-regex: item 1: not a regular expression (missing ), "),
        ("words = [\n", ":1: not valid TOML: "),
        ("a = 1\nb = \n", ":2: not valid TOML: Invalid value"),
        ("colour = 1\n", ":1: unknown key 'colour'; expected one of words, ignore-regex"),
    ],
)
def test_errors_name_file_line_and_key(tmp_path, text, message):
    path = write(tmp_path / ".nokta.toml", text)
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert str(raised.value).startswith(f"{path}{message}"), str(raised.value)


def test_errors_in_pyproject_count_lines_of_the_whole_file(tmp_path):
    path = write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n\n[tool.nokta]\nwords = []\nexclude = 3\n')
    with pytest.raises(ConfigError, match=r"pyproject.toml:6: exclude: expected a list, got 3"):
        config_for(tmp_path / "x.md")
    path.write_text("[tool]\nnokta = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"pyproject.toml: tool.nokta must be a table"):
        load_config(path)


def test_key_lines_follow_tables_and_dotted_keys():
    text = '[tool.black]\nwords = 1\n[tool]\nnokta.words = []\n[tool."nokta"]\n  "exclude" = []\n'
    assert key_line(text, ("tool", "nokta", "words")) == 4
    assert key_line(text, ("tool", "nokta", "exclude")) == 6
    assert key_line(text, ("tool", "black", "words")) == 2
    assert key_line(text, ("words",)) is None


def test_the_cache_reads_a_file_once_until_it_forgets(tmp_path):
    path = write(tmp_path / "nokta.toml", 'words = ["a"]\n')
    cache = ConfigCache()
    assert cache.config_for(tmp_path / "x.md").words == ("a",)
    path.write_text('words = ["b"]\n', encoding="utf-8")
    assert cache.config_for(tmp_path / "y.md").words == ("a",)
    cache.forget()
    assert cache.config_for(tmp_path / "x.md").words == ("b",)
    path.write_text("words = 1\n", encoding="utf-8")
    cache.forget()
    for _ in range(2):  # the error is remembered, and raised each time
        with pytest.raises(ConfigError):
            cache.config_for(tmp_path / "x.md")


# --- the schema ----------------------------------------------------------------------------


def test_the_schema_ships_in_the_package_and_is_a_valid_json_schema():
    shipped = json.loads(resources.files("nokta_model.config").joinpath("schema.json").read_text(encoding="utf-8"))
    assert shipped == SCHEMA
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    assert set(KEYS) == {
        "words", "ignore-regex", "exclude", "confidence-threshold", "strict-confidence-threshold", "autocorrect",
        "autocorrect-threshold",
    }  # fmt: skip
    assert set(KEYS) - {"words", "ignore-regex", "exclude"} <= {
        field.replace("_", "-") for field in Config.__dataclass_fields__
    }


KNOWN_KEYWORDS = {"type", "items", "minLength", "minimum", "maximum", "format", "description"}


def test_the_validator_reads_every_keyword_the_schema_uses():
    def keywords(spec: dict) -> set[str]:
        return set(spec) | (keywords(spec["items"]) if "items" in spec else set())

    assert set().union(*(keywords(spec) for spec in KEYS.values())) <= KNOWN_KEYWORDS
    assert SCHEMA["additionalProperties"] is False  # an unknown key is an error there too


SAMPLES = [
    {"words": ["Yasar"], "exclude": ["vendor/"], "confidence-threshold": 0.9},
    {"ignore-regex": [r"\bSKU-\d+\b"], "autocorrect": [], "autocorrect-threshold": 1},
    {"strict-confidence-threshold": 0},
    {"words": "Yasar"},
    {"words": [3]},
    {"words": [""]},
    {"exclude": [True]},
    {"confidence-threshold": 1.01},
    {"confidence-threshold": -0.1},
    {"autocorrect-threshold": "0.9"},
    {"autocorrect": "markdown"},
    {"worde": ["x"]},
]


@pytest.mark.parametrize("sample", SAMPLES, ids=[json.dumps(s) for s in SAMPLES])
def test_the_validator_and_the_schema_agree(sample):
    schema_says = jsonschema.Draft4Validator(SCHEMA).is_valid(sample)
    try:
        for key, value in sample.items():
            if key not in KEYS:
                raise ValueError(key)
            checked(KEYS[key], copy.deepcopy(value))
        validator_says = True
    except ValueError:
        validator_says = False
    assert validator_says == schema_says
