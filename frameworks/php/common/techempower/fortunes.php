<?php
// Adds the request-time fortune and sorts by message by byte order, which for UTF-8 is code-point
// order (strcmp, not a locale collation). $rows maps id => message.
function techempower_fortunes(array $rows): array
{
    $rows[0] = 'Additional fortune added at request time.';
    asort($rows, SORT_STRING);
    return $rows;
}
