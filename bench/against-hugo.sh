#!/usr/bin/env bash
# bench/against-hugo.sh [COPIES...] builds, side by side, kflowgen's guide
# repeated COPIES times (default 1 and 16: 19 and 304 pages) and a Hugo site
# of the same pages (the same Markdown, whose ```kflow fences Hugo shows as
# plain code: Hugo simulates nothing), with a minimal layout. Each pair of
# cold builds runs back to back, three times, and the script prints both
# median wall times, processor times, their ratio and the load average.
# Without /usr/bin/hugo (or hugo on PATH) it says so and builds kflowgen only.
set -euo pipefail
cd "$(dirname "$0")/.."
hugo=$(command -v hugo || true)
[ -n "$hugo" ] || echo "hugo is not installed (apt-get install hugo): timing kflowgen alone"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/kflowgen" ./cmd/kflowgen

mkdir -p "$work/layouts/_default"
printf '<!doctype html><title>{{ .Title }}</title>{{ range .Site.Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ .Content }}\n' >"$work/layouts/_default/single.html"
cp "$work/layouts/_default/single.html" "$work/layouts/_default/list.html"
cp "$work/layouts/_default/single.html" "$work/layouts/index.html"

# median of three numbers
med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }
# timed CMD...: prints "wall cpu" in seconds
timed() {
	if ! /usr/bin/time -o "$work/time" -f '%e %U %S' "$@" >"$work/log" 2>&1; then
		echo "failed: $*" >&2
		head -5 "$work/log" >&2
		exit 1
	fi
	awk '{printf "%s %.2f\n", $1, $2 + $3}' "$work/time"
}

for copies in "${@:-1 16}"; do
	for copies1 in $copies; do
		k="$work/k$copies1" h="$work/h$copies1"
		mkdir -p "$k/content" "$h/content"
		for c in $(seq 0 $((copies1 - 1))); do
			for f in content/*.md; do
				b=$(basename "$f" .md)
				if [ "$c" -eq 0 ]; then name=$b; else name=$b-$c; fi
				[ "$b" = index ] && [ "$c" -gt 0 ] && continue
				# A copy's own figure ids carry its own page name.
				sed "s/#$b--/#$name--/g" "$f" >"$k/content/$name.md"
				cp "$k/content/$name.md" "$h/content/$name.md"
			done
		done
		rm -f "$h/content/index.md"
		printf 'baseURL = "/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n' >"$h/config.toml"
		cp -r "$work/layouts" "$h/"
		pages=$(ls "$k/content" | wc -l)
		kw=() kc=() hw=() hc=()
		for run in 1 2 3; do
			read -r w c < <(timed "$work/kflowgen" build --content "$k/content" --out "$k/public")
			kw+=("$w") kc+=("$c")
			if [ -n "$hugo" ]; then
				rm -rf "$h/public" "$h/resources"
				read -r w c < <(timed "$hugo" --source "$h" --quiet)
				hw+=("$w") hc+=("$c")
			fi
		done
		load=$(cut -d' ' -f1-3 /proc/loadavg)
		if [ -n "$hugo" ]; then
			echo "$pages pages: kflowgen wall $(med "${kw[@]}") s cpu $(med "${kc[@]}") s; hugo wall $(med "${hw[@]}") s cpu $(med "${hc[@]}") s;" \
				"ratio wall $(ratio "$(med "${kw[@]}")" "$(med "${hw[@]}")")x cpu $(ratio "$(med "${kc[@]}")" "$(med "${hc[@]}")")x (load $load)"
		else
			echo "$pages pages: kflowgen wall $(med "${kw[@]}") s cpu $(med "${kc[@]}") s (load $load)"
		fi
	done
done
