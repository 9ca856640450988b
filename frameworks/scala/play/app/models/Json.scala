package models

import play.api.libs.json.{Json, OWrites, Writes}

import webshootout.common.World

/** The answers' JSON, written by play-json on every request. */
object JsonWrites:
  final case class Message(message: String)

  given OWrites[Message] = Json.writes[Message]

  given Writes[World] = Writes(row => Json.obj("id" -> row.id, "randomNumber" -> row.randomNumber))
