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
