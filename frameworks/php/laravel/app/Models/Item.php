<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

// crud's row; its id comes from the table's identity column (Eloquent's insert ... returning "id").
class Item extends Model
{
    public $timestamps = false;
    protected $fillable = ['name', 'quantity'];

    // A path id past int4 names no row; asked as is, PostgreSQL would refuse the comparison (a 500, not a 404).
    public function resolveRouteBinding($value, $field = null)
    {
        return $value <= 2147483647 ? parent::resolveRouteBinding($value, $field) : null;
    }
}
