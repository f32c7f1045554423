"""Compatibility shim: ``ZH_OCCUPATIONS`` for ``commit/rules/zh.py``; everything else imports ``graphbrain.nlp.*``.

Kept only while ``commit/rules/`` is edited elsewhere (issue 21); once it imports
``graphbrain.nlp.chinese`` directly this module can go.
"""

from graphbrain.nlp.chinese import ZH_OCCUPATIONS

__all__ = ["ZH_OCCUPATIONS"]
