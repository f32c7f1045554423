"""compose_context: plan, retrieve both sides, fuse, budget, compose the slot-ordered ContextPackage."""
