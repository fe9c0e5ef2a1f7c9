"""The validation set of scripts/validate.py: which runs, how they are run, what is compared."""
