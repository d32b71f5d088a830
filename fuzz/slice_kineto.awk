# Cuts a Kineto trace (as PyTorch writes it: one event per "  {" ... "  },"
# block) down to a fuzzing seed: everything before "traceEvents" (device
# properties, distributed info) and at most three events of each phase and
# category, so that a few KiB cover every kind of event the trace has.
# Used by scripts/fuzz.sh on ../shared/traces, which stay out of the repository.
!started {
  print
  if ($0 ~ /"traceEvents": *\[/) started = 1
  next
}
!inside && /^  \{.*\},?$/ { keep($0); next }
!inside && /^  \{$/ { inside = 1; event = $0; next }
inside {
  event = event "\n" $0
  if ($0 ~ /^  \},?$/) { inside = 0; keep(event) }
}
function keep(text,   kind) {
  kind = ""
  if (match(text, /"ph": *"[^"]*"/)) kind = substr(text, RSTART, RLENGTH)
  if (match(text, /"cat": *"[^"]*"/)) kind = kind substr(text, RSTART, RLENGTH)
  if (count[kind]++ >= 3) return
  sub(/,$/, "", text)
  kept[n++] = text
}
END {
  for (i = 0; i < n; i++) printf "%s%s\n", kept[i], (i < n - 1 ? "," : "")
  print "]}"
}
