package common

// MessageConn is the part of a gorilla-style WebSocket connection the echo needs; gorilla/websocket
// and its fasthttp fork both have it.
type MessageConn interface {
	ReadMessage() (messageType int, p []byte, err error)
	WriteMessage(messageType int, data []byte) error
	Close() error
}

// Echo sends every message back unchanged until the peer goes, then closes the connection.
func Echo(conn MessageConn) {
	defer conn.Close()
	for {
		typ, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if err := conn.WriteMessage(typ, msg); err != nil {
			return
		}
	}
}
