"""The shapes of vidsleuth's data files, as pydantic models.

Formats others write (corpora, questions, ground truth, trajectories) accept extra keys (a
yt-dlp dump carries dozens); formats vidsleuth writes for itself (index metadata, memory cards,
rubric trees, config sections) forbid them, so a misspelt key is named with a "did you mean".
Every number must be finite. ``model_json_schema()`` of each model is what the MCP tools publish.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

Finite = Annotated[float, Field(allow_inf_nan=False)]
NonNegative = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Count = Annotated[StrictInt, Field(ge=0)]
Text = Annotated[StrictStr, Field(min_length=1)]
Id = Union[StrictStr, StrictInt]  # ids are strings; integer ids (row numbers) are read as written


class Open(BaseModel):
    """A record of a format others write: unknown keys are kept, numbers must be finite."""

    model_config = ConfigDict(extra="allow", allow_inf_nan=False, populate_by_name=True, frozen=True)


class Closed(BaseModel):
    """A record of a format vidsleuth writes: unknown keys are errors (with "did you mean")."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, populate_by_name=True, frozen=True)


# --------------------------------------------------------------------------- corpus and questions


class CorpusRecord(Open):
    video_id: Text
    title: Text
    description: StrictStr | None = None
    channel: StrictStr | None = None
    tags: list[StrictStr] | StrictStr | None = None
    duration: NonNegative | None = None
    url: StrictStr | None = None
    path: StrictStr | None = None
    published: StrictStr | None = None
    upload_date: StrictStr | None = None


class Question(Open):
    """A browsing question; the public datasets' names (``row_id``, ``seed_video_id``) are aliases."""

    id: Id = Field(validation_alias="id")
    question: Text
    answer: Union[StrictStr, StrictInt, Finite]
    level: Union[StrictStr, StrictInt, None] = None
    genre: StrictStr | None = None
    seed_video_ids: list[Id] = Field(default_factory=list)

    @classmethod
    def from_row(cls, row: Any) -> Any:
        """The aliases folded in: ``row_id``/``qid`` for ``id``, ``seed_video_id`` for a one-item list."""
        if isinstance(row, dict):
            row = dict(row)
            for alias in ("row_id", "qid"):
                if "id" not in row and alias in row:
                    row["id"] = row[alias]
            if "seed_video_ids" not in row and row.get("seed_video_id") not in (None, ""):
                row["seed_video_ids"] = [row["seed_video_id"]]
        return row


# --------------------------------------------------------------------------- grounding

Window = Annotated[list[NonNegative], Field(min_length=2, max_length=2)]


class GroundTruthRow(Open):
    """Native temporal-grounding truth: ``{"id", "gt": [[s, e], …], "duration"}``."""

    id: Id
    gt: Annotated[list[Window], Field(min_length=1)]
    duration: Positive | None = None

    @field_validator("gt")
    @classmethod
    def _ordered(cls, v):
        for s, e in v:
            if e < s:
                raise ValueError(f"a window ends before it starts ([{s:g}, {e:g}])")
        return v


class QVHighlightsRow(Open):
    qid: Id
    relevant_windows: list[Window]
    duration: Positive | None = None


class ActivityNetEntry(Open):
    duration: Positive | None = None
    timestamps: list[Window] = Field(default_factory=list)
    sentences: list[StrictStr] = Field(default_factory=list)


class GroundingPrediction(Open):
    """A prediction line: the windows are parsed leniently (a bad one is *unparsed*, scored 0)."""

    id: Id | None = None
    qid: Id | None = None
    pred: Any = None
    pred_relevant_windows: Any = None


class CompassInstance(Open):
    id: Text
    video: Text
    task: Literal["TG", "SG", "QA"]
    track: Literal["VL", "AV"] = "VL"
    text: Text
    text_prime: StrictStr | None = None
    ref_image: StrictStr | None = None
    duration: Positive
    interval: Window | None = None
    boxes: list[Annotated[list[Finite], Field(min_length=4, max_length=4)]] | None = None
    frame_size: Annotated[list[Positive], Field(min_length=2, max_length=2)] | None = None
    options: list[StrictStr] | None = None
    answer: StrictStr | None = None


# --------------------------------------------------------------------------- runs and trajectories


class TrajectoryEvent(Open):
    type: Literal["search", "read", "write", "tool", "model", "check"]
    error: StrictBool | StrictStr | None = False  # a message counts as an error
    tokens_in: Count = 0
    tokens_out: Count = 0
    seconds: NonNegative = 0.0


class TraceStep(Open):
    role: StrictStr = ""
    note: Any = ""
    tokens_in: Count = 0
    tokens_out: Count = 0
    seconds: NonNegative = 0.0


class BrowseTrace(Open):
    """A ``bench browse`` / ``ask --trace`` trace (JSON): the steps the agent took."""

    steps: list[TraceStep]


# --------------------------------------------------------------------------- indexes and memory


class IndexMeta(Open):
    """``meta.json`` of a search index (unknown keys allowed: later versions add some)."""

    version: StrictInt
    kind: Literal["bm25", "dense", "hybrid"]
    analyzer: dict[str, Any]
    n_docs: Count = 0
    corpus: StrictStr = ""
    fields: list[StrictStr] = Field(default_factory=list)
    id_field: StrictStr = "video_id"
    bm25: dict[str, Any] | None = None
    embedder: StrictStr | None = None


class IndexDocs(Closed):
    ids: list[StrictStr]
    titles: list[StrictStr]


class MemoryAnchors(Open):
    entities: list[StrictStr] = Field(default_factory=list)
    salient_terms: list[StrictStr] = Field(default_factory=list)
    channel_signal: StrictStr | None = None


class MemoryCardRow(Closed):
    """One line of a Translation Memory's ``cards.jsonl``."""

    index_text: StrictStr
    status: Literal["ok", "retry_ok", "failure"]
    verified_query: StrictStr = ""
    seed_rank: Annotated[StrictInt, Field(ge=1)] | None = None
    anchors: MemoryAnchors = Field(default_factory=MemoryAnchors)
    row_id: Union[StrictStr, StrictInt] = ""
    queries_tried: list[Any] = Field(default_factory=list)
    payload_text: StrictStr = ""
    self_check: Any = None


class MemoryMeta(Open):
    n_cards: Count | None = None


# --------------------------------------------------------------------------- rubric and report (shape only)


class RubricLeaf(Closed):
    id: Text
    kind: Literal["judge", "machine"]
    question: StrictStr | None = None
    material: StrictStr | None = None
    fact: dict[str, Any] | None = None
    check: StrictStr | None = None
    gate: StrictBool = False
    guard: StrictStr | None = None
    weight: NonNegative | None = None


class RubricDirection(Closed):
    name: Text
    weight: NonNegative = 1.0
    saturation: Annotated[StrictInt, Field(ge=1)] | None = None
    cap: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] | None = None
    leaves: Annotated[list[RubricLeaf], Field(min_length=1)]


class RubricDimension(Closed):
    name: Text
    weight: NonNegative = 1.0
    directions: Annotated[list[RubricDirection], Field(min_length=1)]


class RubricTree(Closed):
    """The shape of an Omni-ART rubric tree; its meaning (weights, guards, names) is checked by
    ``vidsleuth.rubric.schema``."""

    schema_: StrictStr = Field("vidsleuth.rubric/1", alias="schema")
    task: Text
    dimensions: Annotated[list[RubricDimension], Field(min_length=1)]


class ReportShape(Open):
    """The top level of ``report.json`` (what ``report check`` needs before it reads further)."""

    video: dict[str, Any]
    request: StrictStr
    sources: list[dict[str, Any]] = Field(default_factory=list)
    evidence: list[dict[str, Any]] = Field(default_factory=list)
    anchors: list[dict[str, Any]] = Field(default_factory=list)


# --------------------------------------------------------------------------- config


class EndpointConfig(Closed):
    """One ``[models.NAME]`` table (the checks of ranges and secrets live in models.config)."""

    backend: StrictStr
    model: StrictStr = ""
    base_url: StrictStr = ""
    api_key_env: StrictStr = ""
    max_concurrency: StrictInt = 4
    timeout: Positive = 120.0
    max_retries: StrictInt = 4
    image_max_side: StrictInt = 512
    image_quality: StrictInt = 70
    price_in: NonNegative = 0.0
    price_out: NonNegative = 0.0
    json_mode: StrictBool = False
    embedding_model: StrictStr = ""
    vision: StrictBool | None = None
    audio: StrictBool | None = None
    judge: StrictBool | None = None
    threads: StrictInt = 0
    frames: StrictInt | None = None


class ConfigFile(Closed):
    models: dict[str, EndpointConfig] = Field(default_factory=dict)
    roles: dict[str, StrictStr] = Field(default_factory=dict)
    browse: dict[str, Any] = Field(default_factory=dict)
    report: dict[str, Any] = Field(default_factory=dict)
    rubric: dict[str, Any] = Field(default_factory=dict)
    executor: dict[str, Any] = Field(default_factory=dict)
