package common

import (
	"reflect"
	"strings"
	"testing"
)

func TestSortFortunesByCodePoint(t *testing.T) {
	rows := []Fortune{{12, "フレームワークのベンチマーク"}, {1, "fortune: No such file or directory"},
		{0, "Additional fortune added at request time."}, {11, "<script>"}, {2, "A computer"}}
	got := SortFortunes(rows)
	var ids []int32
	for _, row := range got {
		ids = append(ids, row.ID)
	}
	// '<' < 'A' < 'f' < U+30D5: upper case before lower, the Japanese row last.
	if want := []int32{11, 2, 0, 1, 12}; !reflect.DeepEqual(ids, want) {
		t.Errorf("order %v, want %v", ids, want)
	}
}

func TestFortunesTemplateEscapes(t *testing.T) {
	var out strings.Builder
	rows := []Fortune{{11, `<script>alert("x");</script>`}, {6, "A & B — 'q'"}}
	if err := FortunesTemplate.Execute(&out, rows); err != nil {
		t.Fatal(err)
	}
	want := "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>" +
		"<tr><td>11</td><td>&lt;script&gt;alert(&#34;x&#34;);&lt;/script&gt;</td></tr>" +
		"<tr><td>6</td><td>A &amp; B — &#39;q&#39;</td></tr></table></body></html>\n"
	if out.String() != want {
		t.Errorf("rendered\n%s\nwant\n%s", out.String(), want)
	}
}

func TestTemplatesHoldsTheSamePage(t *testing.T) {
	page, err := Templates.ReadFile("fortunes.html")
	if err != nil || string(page) != FortunesHTML {
		t.Errorf("Templates' fortunes.html: %v, %q", err, page)
	}
}
