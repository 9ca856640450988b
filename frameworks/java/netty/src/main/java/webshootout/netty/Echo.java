package webshootout.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;

/** websocket: the frames WebSocketServerProtocolHandler decodes on /ws; each text frame goes back as it came. */
@ChannelHandler.Sharable
final class Echo extends SimpleChannelInboundHandler<TextWebSocketFrame> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, TextWebSocketFrame frame) {
        ctx.writeAndFlush(frame.retainedDuplicate());
    }
}
