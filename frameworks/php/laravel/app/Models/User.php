<?php

namespace App\Models;

use Illuminate\Foundation\Auth\User as Authenticatable;

// The user model config/auth.php names; there is no users table because nobody logs in.
class User extends Authenticatable
{
}
