"""The build step pyproject.toml cannot say: the top-level ``cypher/`` and ``seeds/`` folders (their home)
are copied into the wheel as ``graphbrain/_shipped/`` so an installed package has its queries and demo
data (``graphbrain.assets.asset_dir`` finds them). An editable install reads the folders in place."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED = ("cypher", "seeds")


class BuildWithShipped(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        root = Path(__file__).resolve().parent
        for name in SHIPPED:
            self.copy_tree(str(root / name), str(Path(self.build_lib) / "graphbrain" / "_shipped" / name))


setup(cmdclass={"build_py": BuildWithShipped})
