package site

import (
	"bytes"
	"html/template"
	"io"
	"slices"
	"text/template/parse"
)

// A page's Markdown, its figures in it, is most of its bytes (25 MB of the
// 288-page site whose fences all differ), and html/template copies a
// value it prints twice: into fmt's buffer (Fprint), then into the page's.
// So a page is made in two parts: its layout executed with contentMark
// where its Content goes, then one slice of the page's size holding the
// layout's bytes before the mark, the Content, and the rest.

// contentMark stands for a page's Content while its layout is executed
// (executeLayout). No other value writes it: html/template escapes NUL
// wherever it writes data, and goldmark replaces it in Markdown.
const contentMark = "\x00kflowgen-content\x00"

// printsContentOnly reports whether the layout name of t, and the
// templates it calls, use a page's Content only by printing it as it is:
// every mention of it is an action that writes .Content or $.Content in
// HTML text, where html/template writes a template.HTML unescaped, and
// nothing else (no function, no variable set, no condition on it, no
// attribute, script, style or comment around it). A layout executed with
// contentMark in Content's place then writes the same bytes around it.
// The templates are read as html/template escaped them, which it does at
// their first execution: printsContentOnly executes name once, for
// nothing, with empty data.
func printsContentOnly(t *template.Template, name string) bool {
	_ = t.ExecuteTemplate(io.Discard, name, layoutData{}) // escapes name and what it calls
	ok := true
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if tt := t.Lookup(name); tt != nil && tt.Tree != nil && tt.Tree.Root != nil {
			walkContent(tt.Tree.Root, &ok, visit)
		}
	}
	visit(name)
	return ok
}

// walkContent clears *ok at a mention of Content under n that is not a
// print of it in text, or at contentMark in a template's own text; it
// calls visit with the name of each template called.
func walkContent(n parse.Node, ok *bool, visit func(string)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walkContent(c, ok, visit)
			}
		}
	case *parse.TextNode:
		*ok = *ok && !bytes.Contains(n.Text, []byte(contentMark))
	case *parse.ActionNode:
		if printsInText(n.Pipe) {
			return
		}
		walkContent(n.Pipe, ok, visit)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, ok, visit)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, ok, visit)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, ok, visit)
	case *parse.TemplateNode:
		walkContent(n.Pipe, ok, visit)
		visit(n.Name)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walkContent(c, ok, visit)
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			walkContent(a, ok, visit)
		}
	case *parse.FieldNode:
		*ok = *ok && !slices.Contains(n.Ident, "Content")
	case *parse.VariableNode:
		*ok = *ok && !slices.Contains(n.Ident, "Content")
	case *parse.ChainNode:
		*ok = *ok && !slices.Contains(n.Field, "Content")
		walkContent(n.Node, ok, visit)
	}
}

func walkBranch(b *parse.BranchNode, ok *bool, visit func(string)) {
	walkContent(b.Pipe, ok, visit)
	walkContent(b.List, ok, visit)
	walkContent(b.ElseList, ok, visit)
}

// printsInText reports whether p, as html/template escaped it, is
// {{.Content}} or {{$.Content}} in HTML text: the field, then the HTML
// escaper, which writes a template.HTML as it is.
func printsInText(p *parse.PipeNode) bool {
	if p == nil || len(p.Decl) > 0 || len(p.Cmds) != 2 || len(p.Cmds[0].Args) != 1 || len(p.Cmds[1].Args) != 1 {
		return false
	}
	if id, ok := p.Cmds[1].Args[0].(*parse.IdentifierNode); !ok || id.Ident != "_html_template_htmlescaper" {
		return false
	}
	switch a := p.Cmds[0].Args[0].(type) {
	case *parse.FieldNode:
		return slices.Equal(a.Ident, []string{"Content"})
	case *parse.VariableNode:
		return slices.Equal(a.Ident, []string{"$", "Content"})
	}
	return false
}

// executeLayout executes the layout name for d, whose Content is the
// page's; splice says the layout only prints Content, in text
// (printsContentOnly). With splice the layout is executed with
// contentMark for Content and, when it wrote the mark once, the page is
// its bytes with Content in the mark's place, in a slice of the page's
// size; otherwise, or without splice, it is executed with d as it is.
func executeLayout(t *template.Template, name string, d layoutData, splice bool) ([]byte, error) {
	// Sized for the built-in layout; a page whose layout takes more grows
	// its buffer.
	around := (len(d.Nav)+len(d.Headings))*navItemBytes + layoutBytes
	if splice {
		content := d.Content
		d.Content = contentMark
		buf := pageBuffer(make([]byte, 0, around))
		if err := t.ExecuteTemplate(&buf, name, d); err != nil {
			return nil, &templateError{err}
		}
		if i := bytes.Index(buf, []byte(contentMark)); i >= 0 && !bytes.Contains(buf[i+len(contentMark):], []byte(contentMark)) {
			page := make([]byte, 0, len(buf)-len(contentMark)+len(content))
			page = append(page, buf[:i]...)
			page = append(page, content...)
			return append(page, buf[i+len(contentMark):]...), nil
		}
		d.Content = content
	}
	buf := pageBuffer(make([]byte, 0, len(d.Content)+around))
	if err := t.ExecuteTemplate(&buf, name, d); err != nil {
		return nil, &templateError{err}
	}
	return buf.trim(), nil
}
