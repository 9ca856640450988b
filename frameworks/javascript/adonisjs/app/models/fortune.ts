import { BaseModel, column } from '@adonisjs/lucid/orm'

// The harness's table fortune(id, message).
export default class Fortune extends BaseModel {
  static table = 'fortune'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare message: string
}
