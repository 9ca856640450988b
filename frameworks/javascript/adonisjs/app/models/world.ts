import { BaseModel, column } from '@adonisjs/lucid/orm'

/*
 * The harness's table world(id, randomnumber). Its column has no underscore, so the property names the
 * column, and serializes as TechEmpower's key `randomNumber` (Lucid's naming strategy would write
 * `random_number`).
 */
export default class World extends BaseModel {
  static table = 'world'

  @column({ isPrimary: true })
  declare id: number

  @column({ columnName: 'randomnumber', serializeAs: 'randomNumber' })
  declare randomNumber: number
}
