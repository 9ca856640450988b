<?php

// Needed by the web middleware group (ShareErrorsFromSession shares an error bag with the views).
return [
    'paths' => [resource_path('views')],
    'compiled' => storage_path('framework/views'),
];
