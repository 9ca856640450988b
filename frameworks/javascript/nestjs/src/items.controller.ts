import {
  Body, Controller, Delete, Get, HttpCode, Injectable, NotFoundException, Param, Post, Put, Query, Res,
  BadRequestException, DefaultValuePipe, ParseIntPipe, PipeTransform, UnprocessableEntityException,
} from '@nestjs/common';
import { Database, Item, ItemFields } from './database';
import { items } from './shared';

const ITEMS = 'items';

// A path id that is not an int4 names no row: 404, where Nest's ParseIntPipe would say 400 (and would let
// PostgreSQL refuse an id past 32 bits).
@Injectable()
class ItemIdPipe implements PipeTransform<string, number> {
  transform(raw: string): number {
    const id = items.itemId(raw);
    if (id === null) throw new NotFoundException(`no item ${raw}`);
    return id;
  }
}

// The body's shape as the contract states it, refused with 422; the adapter's JSON parser has already
// answered 400 to a body that is not JSON. Other members are dropped here.
@Injectable()
class ItemBodyPipe implements PipeTransform<unknown, ItemFields> {
  transform(body: unknown): ItemFields {
    const fields = items.itemFields(body);
    if (fields === null) {
      throw new UnprocessableEntityException('expected an object with a string name and a 32-bit integer quantity');
    }
    return fields;
  }
}

// crud: Nest's routing by method, pipes for the id, the page and the body, exceptions for 400, 404 and 422,
// the pg pool of the Database provider.
@Controller(ITEMS)
export class ItemsController {
  constructor(private readonly database: Database) {}

  @Get()
  page(
    @Query('page', new DefaultValuePipe(1), ParseIntPipe) page: number,
    @Query('size', new DefaultValuePipe(10), ParseIntPipe) size: number,
  ): Promise<Item[]> {
    if (page < 1 || size < 1 || size > 100) {
      throw new BadRequestException('page must be an integer >= 1, size an integer in 1..100');
    }
    return this.database.items.page(items.pageWindow(page, size));
  }

  @Get(':id')
  async one(@Param('id', ItemIdPipe) id: number): Promise<Item> {
    return found(id, await this.database.items.find(id));
  }

  // @Post answers 201; the adapter's response (Express's or Fastify's, both have header()) takes the Location.
  @Post()
  async create(@Body(ItemBodyPipe) fields: ItemFields, @Res({ passthrough: true }) res): Promise<Item> {
    const item = await this.database.items.create(fields);
    res.header('Location', `/${ITEMS}/${item.id}`);
    return item;
  }

  @Put(':id')
  async update(@Param('id', ItemIdPipe) id: number, @Body(ItemBodyPipe) fields: ItemFields): Promise<Item> {
    return found(id, await this.database.items.update(id, fields));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', ItemIdPipe) id: number): Promise<void> {
    if (!(await this.database.items.remove(id))) throw new NotFoundException(`no item ${id}`);
  }
}

function found(id: number, item: Item | null): Item {
  if (item === null) throw new NotFoundException(`no item ${id}`);
  return item;
}
