"""affray's own supplements: each one folder, one extension (``affray.extensions.Extension``) registered under the
entry point group ``affray.extensions`` in pyproject.toml exactly as another package's would be. The engine imports
none of them."""
