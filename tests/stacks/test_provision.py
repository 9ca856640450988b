"""The setup hash: sources anywhere count, build output at the folder's top and bytecode caches do not."""

from webshootout.stacks.provision import BUILD_DIRS, folder_hash


def _folder(tmp_path):
    (tmp_path / "src" / "bin").mkdir(parents=True)
    (tmp_path / "src" / "bin" / "main.rs").write_text("fn main() {}\n")
    for name in BUILD_DIRS:
        (tmp_path / name).mkdir()
        (tmp_path / name / "output").write_text("built")
    return tmp_path


def test_a_source_under_a_folder_named_like_build_output_counts(tmp_path):
    folder = _folder(tmp_path)
    before = folder_hash(folder)
    (folder / "src" / "bin" / "main.rs").write_text("fn main() { println!(); }\n")
    assert folder_hash(folder) != before
    (folder / ".mvn").mkdir()
    (folder / ".mvn" / "jvm.config").write_text("-Xmx1g\n")
    assert folder_hash(folder) != before


def test_build_output_and_bytecode_caches_do_not_count(tmp_path):
    folder = _folder(tmp_path)
    before = folder_hash(folder)
    for name in BUILD_DIRS:
        (folder / name / "output").write_text("rebuilt")
    (folder / "src" / "__pycache__").mkdir()
    (folder / "src" / "__pycache__" / "app.cpython-311.pyc").write_bytes(b"\0")
    (folder / ".setup-done").write_text("x")
    assert folder_hash(folder) == before


def test_two_builders_of_one_folder_build_it_once_and_both_are_recorded(tmp_path):
    """A check and the lineup's background builder may reach one stack at once: the second waits for the
    first's build and finds it done, instead of building into the same folder beside it."""
    import threading

    from manifests import BASE
    from webshootout.stacks import catalog, provision

    folder = tmp_path / "frameworks" / "python" / "demo"
    folder.mkdir(parents=True)
    # The first builder is still inside its command when the second arrives: the sleep keeps it there.
    (folder / "framework.toml").write_text(BASE.replace(
        "[start]", '[setup]\ncommands = ["sleep 0.5; echo built >> builds.txt"]\n[start]'))
    (variant,) = catalog.load_manifest(folder / "framework.toml")
    before = len(provision.LEDGER)
    builders = [threading.Thread(target=provision.setup, args=(variant, tmp_path / f"{i}.log", lambda m: None))
                for i in range(2)]
    for builder in builders:
        builder.start()
    for builder in builders:
        builder.join()
    assert (folder / "builds.txt").read_text() == "built\n"
    spent = provision.LEDGER[before:]
    assert [s.variant for s in spent] == ["demo", "demo"]
    assert max(s.build for s in spent) >= 0.5
    assert (folder / provision.LOCK).exists() and provision.is_built(variant)  # the lock is no source
