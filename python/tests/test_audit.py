"""samplab.audit against the command line: the committed llama-server 0.4.0 logs of
data/golden/audit/ (README.md there says how they were recorded) judged by the call and by
`samplab audit --log FILE --json`, JSON object for JSON object; the refusals as the command's
stderr line worded for Python; a server that does not answer. Run from the repository root
(make test does): SL_BIN names the command line, SAMPLAB_LIB the library."""

import json
import socket

import pytest

import samplab

from test_samplab import cli_json, py_error

G = "data/golden/audit"
STAGES = {"top-k", "top-p", "min-p", "typical", "temperature", "penalties", "dry", "top-n-sigma", "xtc"}


def test_correct_log_is_consistent_and_the_cli():
    r = samplab.audit(log=G + "/correct.jsonl")
    assert r.json == cli_json("audit", "--log", G + "/correct.jsonl", rc=0)
    assert r.command == "audit" and r.verdict == "consistent" and r.exit == 0
    assert r.seed_honoured is True and r.settings_honoured is True and r.outside_kept == []
    assert r.predicted["steps"] > 0 and r.predicted["exact"] == r.predicted["steps"]
    assert r.predicted["first_divergence"] == []
    assert r.p_value > 0.01 and r.concurrency is None
    assert r.session == "llamacpp 0.4.0"


def test_topk_off_log_is_rejected_naming_the_stages():
    r = samplab.audit(log=G + "/topk_off.jsonl")
    assert r.json == cli_json("audit", "--log", G + "/topk_off.jsonl", rc=1)
    assert r.verdict == "rejected" and r.exit == 1
    assert r.settings_honoured is False and r.seed_honoured is True
    assert r.outside_kept
    for e in r.outside_kept:
        assert set(e) == {"request", "step", "token", "stage"} and e["stage"] in STAGES, e
    stages = {e["stage"] for e in r.outside_kept}
    assert "top-k" in stages  # the server ran without top-k; its tokens beyond the claimed 40 are named
    assert r.predicted["exact"] < r.predicted["steps"]


@pytest.mark.parametrize("name,rc", [("concurrent", 0), ("openai", 0), ("penalties_on", 0),
                                     ("sendseed_ok", 0), ("penalties_off", 1), ("temp12", 1)])
def test_every_committed_log_is_the_cli(name, rc):
    path = "%s/%s.jsonl" % (G, name)
    r = samplab.audit(log=path, trials=20)
    assert r.json == cli_json("audit", "--log", path, "--trials", 20, rc=rc)
    assert r.exit == rc


def test_settings_given_replace_the_log_claim():
    r = samplab.audit(log=G + "/correct.jsonl", top_k=20, trials=0)
    assert r.json == cli_json("audit", "--log", G + "/correct.jsonl", "--top-k", 20, "--trials", 0, rc=1)
    assert r.settings_honoured is False and "top-k" in {e["stage"] for e in r.outside_kept}


def test_a_log_of_response_bodies(tmp_path):
    lines = open(G + "/correct.jsonl").read().splitlines()
    bodies = tmp_path / "bodies.jsonl"
    bodies.write_text("".join(json.dumps(json.loads(l)["response"]) + "\n" for l in lines[1:25]))
    r = samplab.audit(log=str(bodies), trials=0)
    assert r.json == cli_json("audit", "--log", bodies, "--trials", 0, rc=0)
    assert r.verdict == "consistent" and r.seed_honoured is None  # no repeats: cannot tell
    assert r.predicted["exact"] == r.predicted["steps"] == 192


def test_ollama_claim_takes_its_defaults_and_route(tmp_path):
    lines = open(G + "/ollama_openai.jsonl").read().splitlines()
    bodies = tmp_path / "bodies.jsonl"
    bodies.write_text("".join(json.dumps(json.loads(l)["response"]) + "\n" for l in lines[1:7]))
    r = samplab.audit(log=str(bodies), framework="ollama", ollama="0.32", trials=0)
    assert r.json == cli_json("audit", "--log", bodies, "--framework", "ollama", "--ollama", "0.32",
                              "--trials", 0, rc=0)
    assert r.route_defaults == ["temperature", "top_p"] and r.session == "ollama 0.32"
    assert r.settings["top_k"] == 40 and r.settings["min_p"] == 0


def test_a_bad_log_names_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(samplab.Error) as e:
        samplab.audit(log=str(bad))
    assert str(e.value).startswith("%s: line 1" % bad), str(e.value)
    assert str(e.value) == py_error("audit", "--log", bad)
    with pytest.raises(samplab.Error) as e:
        samplab.audit(log=str(tmp_path / "absent.jsonl"))
    assert "absent.jsonl" in str(e.value) and "cannot open" in str(e.value)


def test_refusals_are_the_cli_lines_worded_for_python():
    with pytest.raises(samplab.Error) as e:
        samplab.audit()
    assert str(e.value) == py_error("audit") == "samplab.audit(): give exactly one of server=URL and log=FILE"
    with pytest.raises(samplab.Error) as e:
        samplab.audit(log=G + "/correct.jsonl", top_k=2.5)
    assert str(e.value) == "samplab.audit(): top_k takes an integer, not '2.5'"
    with pytest.raises(samplab.Error) as e:
        samplab.audit(server="http://127.0.0.1:9", seed=1, n_predict=2)
    assert "prompt" in str(e.value) and "--" not in str(e.value)


def test_an_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'top_kk'"):
        samplab.audit(log=G + "/correct.jsonl", top_kk=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'json'"):  # an option only the CLI has
        samplab.audit(log=G + "/correct.jsonl", json=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'tokens'"):  # check's, not audit's
        samplab.audit(log=G + "/correct.jsonl", tokens=[1, 2])
    with pytest.raises(TypeError, match="positional"):
        samplab.audit(G + "/correct.jsonl")


def _closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_a_dead_server_raises_and_keeps_what_was_recorded(tmp_path):
    url = "http://127.0.0.1:%d" % _closed_port()
    out = tmp_path / "run"
    with pytest.raises(samplab.Error) as e:
        samplab.audit(server=url, api="openai", prompt_ids=[1, 214, 4], seed=1, n_predict=2, requests=2,
                      timeout=5, out=str(out))
    assert url + "/v1/completions" in str(e.value)
    lines = (out / "audit.jsonl").read_text().splitlines()
    head = json.loads(lines[0])
    assert head["samplab_audit"] == 1 and head["api"] == "openai" and head["server"] == url
    first = json.loads(lines[1])
    assert first["purpose"] == "sample" and first["seed"] == 1 and first["body"]["prompt"] == [1, 214, 4]
    assert first["status"] is None and first["error"]


def test_settings_are_numbers():
    r = samplab.audit(log=G + "/correct.jsonl", trials=0)
    assert r.settings["temperature"] == 0.8 and r.settings["top_p"] == 0.95
