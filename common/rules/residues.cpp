#include "rules/residues.h"

#include "support/errors.h"

namespace stack {

ResidueSet ResidueSet::all(int modulus) {
    if (modulus < 1 || modulus > MostClasses)
        throw InputError("the height sum's classes are taken mod 1.." + std::to_string(MostClasses) + ", not mod "
                         + std::to_string(modulus));
    ResidueSet set;
    set.modulus_ = modulus;
    set.mask_ = modulus == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << modulus) - 1;
    return set;
}

ResidueSet ResidueSet::of(int modulus, const std::vector<std::int64_t>& classes) {
    ResidueSet set = all(modulus);
    set.mask_ = 0;
    for (const std::int64_t residue : classes) {
        if (residue < 0 || residue >= modulus)
            throw InputError("a residue class of the height sum mod " + std::to_string(modulus) + " is 0.."
                             + std::to_string(modulus - 1) + ", not " + std::to_string(residue));
        if (set.has(int(residue)))
            throw InputError("residue class " + std::to_string(residue) + " is given twice");
        set.mask_ |= std::uint64_t(1) << residue;
    }
    if (set.mask_ == 0)
        throw InputError("a table holds at least one residue class");
    return set;
}

std::vector<std::int64_t> ResidueSet::list() const {
    std::vector<std::int64_t> classes;
    for (int residue = 0; residue < modulus_; ++residue)
        if (has(residue))
            classes.push_back(residue);
    return classes;
}

std::string ResidueSet::text() const {
    std::string text;
    for (const std::int64_t residue : list())
        text += (text.empty() ? "" : ",") + std::to_string(residue);
    return text;
}

}  // namespace stack
