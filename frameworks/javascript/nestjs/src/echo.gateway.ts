import { OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';

// A Nest gateway on the HTTP server's port (WsAdapter, @nestjs/platform-ws). Nest's message handlers
// expect JSON {event, data} envelopes; the contract's echo of any text frame is the socket's own.
@WebSocketGateway({ path: '/ws' })
export class EchoGateway implements OnGatewayConnection {
  handleConnection(client) {
    client.on('message', (data, isBinary) => client.send(data, { binary: isBinary }));
  }
}
