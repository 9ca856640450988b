package common

import (
	"errors"
	"reflect"
	"testing"
)

type message struct {
	typ  int
	data string
}

type scriptedConn struct {
	incoming []message
	sent     []message
	closed   bool
}

func (c *scriptedConn) ReadMessage() (int, []byte, error) {
	if len(c.incoming) == 0 {
		return 0, nil, errors.New("peer gone")
	}
	m := c.incoming[0]
	c.incoming = c.incoming[1:]
	return m.typ, []byte(m.data), nil
}

func (c *scriptedConn) WriteMessage(typ int, data []byte) error {
	c.sent = append(c.sent, message{typ, string(data)})
	return nil
}

func (c *scriptedConn) Close() error {
	c.closed = true
	return nil
}

func TestEchoSendsEveryMessageBackThenCloses(t *testing.T) {
	in := []message{{1, "hello"}, {2, "\x00bin"}, {1, ""}}
	conn := &scriptedConn{incoming: append([]message(nil), in...)}
	Echo(conn)
	if !reflect.DeepEqual(conn.sent, in) {
		t.Errorf("sent %v, want %v", conn.sent, in)
	}
	if !conn.closed {
		t.Error("connection left open")
	}
}
