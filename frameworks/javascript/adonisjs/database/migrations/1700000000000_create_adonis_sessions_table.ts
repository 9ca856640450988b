import { BaseSchema } from '@adonisjs/lucid/schema'

// The database session store's table, as `node ace make:session-table` generates it (@adonisjs/session
// 8.1.0's stub), under the name config/session.ts gives it.
export default class extends BaseSchema {
  protected tableName = 'adonis_sessions'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id').primary()
      table.text('data').notNullable()
      table.string('user_id').nullable().index()
      table.timestamp('expires_at').notNullable().index()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
